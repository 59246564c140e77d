/** The list of subcommands, in the order `hra --help` shows them. */
import type { Command } from 'commander';
import { registerArchiveCommand } from './archive-command.ts';
import { registerAuditCommand } from './audit-command.ts';
import { registerChangesCommand } from './changes-command.ts';
import { registerCorpusCommands } from './corpus-commands.ts';
import { registerKeysCommand } from './keys-command.ts';
import { registerLinksCommand } from './links-command.ts';
import { registerPruneCommand } from './prune-command.ts';
import { registerQuotesCommand } from './quotes-command.ts';
import { registerRehearseCommand } from './rehearse-command.ts';
import { registerReviewsCommand } from './reviews-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerSynthCommand } from './synth-command.ts';

/** Registers every subcommand on the root program. */
export function registerCommands(program: Command): void {
  registerCorpusCommands(program);
  registerPruneCommand(program);
  registerKeysCommand(program);
  registerSynthCommand(program);
  registerChangesCommand(program);
  registerLinksCommand(program);
  registerQuotesCommand(program);
  registerReviewsCommand(program);
  registerArchiveCommand(program);
  registerAuditCommand(program);
  registerServeCommand(program);
  registerRehearseCommand(program);
}
