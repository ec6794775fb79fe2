import t from 'tap';
import { execFileSync } from 'node:child_process';
import { ZERO, zero } from '../../helpers/zero.js';

t.test('zero completion bash|zsh|fish prints a script made from the commands', async (t) => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await zero(['completion', shell]);
    t.equal(result.code, 0, shell);
    for (const word of ['exec', 'sessions', 'prune', 'output-format']) t.match(result.stdout, word, `${shell}: ${word}`);
  }
  const bad = await zero(['completion', 'tcsh']);
  t.same([bad.code, bad.stderr], [2, '[zero] Invalid value for shell: "tcsh". Expected one of: bash, zsh, fish.\n']);
});

t.test('the bash script completes subcommands and flags in bash itself', async (t) => {
  const complete = (line: string) =>
    execFileSync('bash', ['-c', `eval "$(${JSON.stringify(process.execPath)} ${JSON.stringify(ZERO)} completion bash)"; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _zero; echo "\${COMPREPLY[*]}"`], { encoding: 'utf8' }).trim().split(' ');
  t.same(complete('zero se'), ['sessions']);
  t.same(complete('zero sessions p'), ['prune']);
  t.same(complete('zero sessions list --l'), ['--limit']);
  t.ok(complete('zero exec -o text --ski').includes('--skip-permissions-unsafe'), 'after a flag and its value');
});
