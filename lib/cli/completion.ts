import { Readable } from 'node:stream';
import type { Command } from 'commander';
import type { CliIO } from './io.js';
import { runCommand } from './command.js';
import { choice } from './option-values.js';

// `zero completion bash|zsh|fish`: a completion script made from the program's own commands and flags, so it
// never falls behind them. Subcommands and flags are completed; everything else is left to the shell (files).

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

type Entry = { path: string[]; command: Command };

function entries(command: Command, path: string[] = []): Entry[] {
  const visible = command.commands.filter((sub) => sub.name() !== 'help');
  return [{ path, command }, ...visible.flatMap((sub) => entries(sub, [...path, sub.name()]))];
}

const flagsOf = (command: Command) => [...command.options.filter((option) => !option.hidden).flatMap((option) => [option.short, option.long]), '--help'].filter((flag): flag is string => Boolean(flag));

function bash(zero: Command): string {
  // deepest first: "sessions list" must be tried before "sessions"
  const cases = entries(zero)
    .sort((a, b) => b.path.length - a.path.length)
    .map(({ path, command }) => `    ${path.length === 0 ? '*' : `"${path.join(' ')}"|"${path.join(' ')} "*`}) subs="${command.commands.map((sub) => sub.name()).join(' ')}" flags="${flagsOf(command).join(' ')}" ;;`);
  return `# zero completion for bash: eval "$(zero completion bash)", or save it in ~/.local/share/bash-completion/completions/zero
_zero() {
  local cur=\${COMP_WORDS[COMP_CWORD]} path="" word subs flags
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$word" in -*) ;; *) path="\${path:+$path }$word" ;; esac
  done
  case "$path" in
${cases.join('\n')}
  esac
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); else COMPREPLY=($(compgen -W "$subs" -- "$cur")); fi
}
complete -o default -o bashdefault -F _zero zero
`;
}

function zsh(zero: Command): string {
  return `#compdef zero
# zero completion for zsh: eval "$(zero completion zsh)", or save it as _zero in a folder of $fpath
autoload -U +X bashcompinit && bashcompinit
${bash(zero).split('\n').slice(1).join('\n')}`;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function fish(zero: Command): string {
  const lines = ['# zero completion for fish: zero completion fish > ~/.config/fish/completions/zero.fish'];
  for (const { path, command } of entries(zero)) {
    const subs = command.commands.map((sub) => sub.name());
    const here = path.length === 0 ? '__fish_use_subcommand' : [`__fish_seen_subcommand_from ${path.at(-1)}`, ...(subs.length ? [`not __fish_seen_subcommand_from ${subs.join(' ')}`] : [])].join('; and ');
    for (const sub of command.commands) lines.push(`complete -c zero -n ${quote(here)} -f -a ${sub.name()} -d ${quote(sub.description())}`);
    for (const option of command.options.filter((candidate) => !candidate.hidden)) {
      const short = option.short ? ` -s ${option.short.slice(1)}` : '';
      lines.push(`complete -c zero -n ${quote(here)}${short} -l ${option.long!.slice(2)}${option.required || option.optional ? ' -r' : ''} -d ${quote(option.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `zero completion SHELL`: the script on stdout. */
export function runCompletion(shell: string, zero: Command, io: CliIO): Promise<void> {
  return runCommand(io, 'text', () => {
    const script = { bash, zsh, fish }[choice('shell', shell, SHELLS)](zero);
    return { readable: Readable.from([script]), exitCode: Promise.resolve(0) };
  });
}
