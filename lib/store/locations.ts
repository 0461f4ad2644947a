// Where the private store lives. Everything here is outside the repository, in the user's
// home by default: ~/.gate-check/{approved,receipts,history,hooks}.
import { builtinModule } from '../builtin-module.js';
import { join, resolve } from 'node:path';

export interface StoreLocations {
  /** ~/.gate-check, or $GATE_CHECK_HOME. Created 0700 when something must be written. */
  base: string;
  /** Approvals: $GATE_CHECK_APPROVAL_DIR, else <base>/approved. */
  approvals: string;
  /** True when approvals live under base (then base is created and checked too). */
  approvalsUnderBase: boolean;
  receipts: string;
  history: string;
  hooks: string;
}

export function storeLocations(env: NodeJS.ProcessEnv): StoreLocations {
  const home = env.HOME && env.HOME !== '' ? env.HOME : osModule().homedir();
  const base = env.GATE_CHECK_HOME ? resolve(env.GATE_CHECK_HOME) : join(home, '.gate-check');
  const override = env.GATE_CHECK_APPROVAL_DIR;
  return {
    base,
    approvals: override ? resolve(override) : join(base, 'approved'),
    approvalsUnderBase: !override,
    receipts: join(base, 'receipts'),
    history: join(base, 'history'),
    hooks: join(base, 'hooks'),
  };
}

/** node:os, loaded when first needed (lib/builtin-module.ts): a --status with HOME set never needs it. */
const osModule = () => builtinModule<typeof import('node:os')>('node:os');
