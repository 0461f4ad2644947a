// gate-check hook install / uninstall: implemented separately.
import type { Io } from '../cli/io.js';
import { UsageError } from '../errors.js';

export async function hookInstallCommand(_args: string[], _io: Io, _uninstall: boolean): Promise<number> {
  throw new UsageError('gate-check hook install is not implemented yet');
}
