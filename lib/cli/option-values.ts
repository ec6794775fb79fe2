import type { Command } from 'commander';

/** A word that is an option, not a value: `--x` or `-x`, as Zero's flagValueLooksLikeOption says; `-` (stdin) and numbers are values. */
const looksLikeOption = (word: string) => word.length > 1 && word.startsWith('-') && !/^-(\d+\.?\d*|\.\d+)$/.test(word);

/**
 * An option that takes a value, followed by a word that is an option (`--model --output-format json`, from an
 * empty `$MODEL`), is a usage error naming both, as in Zero: commander would take `--output-format` as the model.
 * Checked once, over the command line, for every option of the command that runs; the inline form
 * (`--model=-x`) passes a value that starts with `-`.
 */
export function checkOptionValues(command: Command, argv: readonly string[]): void {
  for (let index = 0; index < argv.length - 1; index++) {
    if (argv[index] === '--') return;
    const option = command.options.find((candidate) => candidate.required && (candidate.long === argv[index] || candidate.short === argv[index]));
    if (!option) continue;
    const value = argv[++index]!;
    if (looksLikeOption(value)) {
      const inline = option.long ?? option.short;
      command.error(`Option '${option.flags}' needs a value, but the next word is the option "${value}" (write ${inline}=VALUE for a value that starts with "-")`, { code: 'zero.optionValue', exitCode: 2 });
    }
  }
}
