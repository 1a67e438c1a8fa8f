import type { Command } from 'commander';
import { UsageError } from '../usage-error';

/**
 * A bash completion script for the client's verbs and their options, made from the program
 * itself so it never lags behind it; zsh runs it through bashcompinit.
 */
export function completionScript(program: Command, shell: string): string {
  if (shell !== 'bash' && shell !== 'zsh') {
    throw new UsageError(`completion: the shell must be bash or zsh (got "${shell}")`);
  }
  const verbs = program.commands.map((command) => command.name());
  const cases = program.commands
    .map((command) => {
      const flags = command.options.flatMap((option) =>
        [option.short, option.long].filter(Boolean),
      );
      return `    ${command.name()}) opts="${[...flags, '--help'].join(' ')}" ;;`;
    })
    .join('\n');
  return `${shell === 'zsh' ? 'autoload -U +X bashcompinit && bashcompinit\n' : ''}_jobdeck() {
  local cur=\${COMP_WORDS[COMP_CWORD]} opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${verbs.join(' ')} --profile --help" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    *) opts="--help" ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _jobdeck jobdeck
`;
}

export function addCompletion(program: Command): void {
  program
    .command('completion <shell>')
    .description('print a completion script: eval "$(jobdeck completion bash)" (or zsh)')
    .action((shell: string) => {
      process.stdout.write(completionScript(program, shell));
    });
}
