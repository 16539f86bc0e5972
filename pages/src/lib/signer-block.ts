import type { KeyScriptLabels } from '../../labels/types.js';
import { byId, shortKey } from './dom.js';
import { hasExtension, nip07Signer, secretKeySigner, SignerError, type Signer } from './signer.js';

/** The sentence for a signer problem, or null when `error` is something else. */
export function signerProblem(error: unknown, t: KeyScriptLabels): string | null {
  if (!(error instanceof SignerError)) return null;
  if (error.reason === 'no-extension') return t.noExtension;
  return error.reason === 'bad-key' ? t.badNsec : t.extensionRefused;
}

export interface SignerBlock {
  current(): Signer | null;
}

/**
 * Wires the key block (`partials/key.eta`): a NIP-07 extension, or a secret key typed in and kept in page
 * memory only, until "forget". `onChange` gets each new signer (null once forgotten); `onError` what failed;
 * `onAttempt` runs when the person asks for a key (to clear an earlier error).
 */
export function wireSigner(
  t: KeyScriptLabels,
  handlers: {
    onChange(signer: Signer | null): void;
    onError(error: unknown): void;
    onAttempt(): void;
  },
): SignerBlock {
  const status = byId('key-status');
  const choices = byId('key-choices');
  const forgetButton = byId<HTMLButtonElement>('forget-key');
  const nsecForm = byId<HTMLFormElement>('nsec-form');
  const nsecInput = byId<HTMLInputElement>('nsec');
  let signer: Signer | null = null;

  function connect(next: Signer | null): void {
    signer?.forget();
    signer = next;
    status.textContent = next ? `${t.connectedAs} ${shortKey(next.npub)}` : t.notConnected;
    choices.hidden = next !== null;
    forgetButton.hidden = next === null;
    handlers.onChange(next);
  }

  byId('use-extension').addEventListener('click', () => {
    handlers.onAttempt();
    if (!hasExtension()) return handlers.onError(new SignerError('no-extension', 'No extension'));
    nip07Signer().then(connect, handlers.onError);
  });

  nsecForm.addEventListener('submit', (event) => {
    event.preventDefault();
    handlers.onAttempt();
    const typed = nsecInput.value;
    nsecInput.value = '';
    try {
      connect(secretKeySigner(typed));
    } catch (error) {
      handlers.onError(error);
    }
  });

  forgetButton.addEventListener('click', () => connect(null));

  return { current: () => signer };
}
