/**
 * Where API keys live: each origin's in SecretStorage under {@link secretKeyFor}, and the list
 * of origins with a key in global state (never a key), since `SecretStorage.keys()` needs a
 * newer VS Code than the extension supports. The list is repaired on every read, store or delete.
 */
import type * as vscode from 'vscode';
import { globalMemento } from '../stores/globalMemento';
import { GlobalStateKey, SECRET_KEY_PREFIX } from '../ids';

/** Prefix of every API key's SecretStorage key; the origin follows it. */
/** Global state: origins with a key in SecretStorage (no secret). */
const KEY_INDEX = GlobalStateKey.originsWithKey;

/**
 * SecretStorage key of the API key for one service origin. One key per origin means that
 * pointing the extension at another server can never send it the first server's key.
 */
export function secretKeyFor(origin: string): string {
  return `${SECRET_KEY_PREFIX}${origin}`;
}

/** The origin a SecretStorage key belongs to, or undefined for another secret. */
export function originOfSecretKey(secretKey: string): string | undefined {
  return secretKey.startsWith(SECRET_KEY_PREFIX) ? secretKey.slice(SECRET_KEY_PREFIX.length) : undefined;
}

/** Origins the index lists as having a key, oldest first. */
export function indexedOrigins(memento: vscode.Memento): string[] {
  const value = globalMemento(memento).get<unknown>(KEY_INDEX, []);
  return Array.isArray(value) ? value.filter((o): o is string => typeof o === 'string') : [];
}

/** Records whether `origin` has a key. A failed write costs only the index's accuracy until the next read. */
export async function noteKey(memento: vscode.Memento, origin: string, hasKey: boolean): Promise<void> {
  const origins = indexedOrigins(memento);
  if (origins.includes(origin) === hasKey) return;
  const next = hasKey ? [...origins, origin] : origins.filter((o) => o !== origin);
  try {
    await globalMemento(memento).update(KEY_INDEX, next);
  } catch {
    // The index is repaired by the next read of that key.
  }
}

/**
 * Reads the key of `origin` and brings the index in line with what SecretStorage holds.
 * An empty key counts as none; a failed read counts as none and leaves the index alone.
 */
export async function readKey(
  secrets: vscode.SecretStorage,
  memento: vscode.Memento,
  origin: string,
): Promise<string | undefined> {
  let key: string | undefined;
  try {
    key = await secrets.get(secretKeyFor(origin));
  } catch {
    return undefined;
  }
  if (key === '') key = undefined;
  await noteKey(memento, origin, key !== undefined);
  return key;
}

/** Deletes the key of `origin` and drops it from the index. */
export async function deleteKey(secrets: vscode.SecretStorage, memento: vscode.Memento, origin: string): Promise<void> {
  await secrets.delete(secretKeyFor(origin));
  await noteKey(memento, origin, false);
}

/** Stores the key of `origin` and lists it in the index. */
export async function storeKey(
  secrets: vscode.SecretStorage,
  memento: vscode.Memento,
  origin: string,
  key: string,
): Promise<void> {
  await secrets.store(secretKeyFor(origin), key);
  await noteKey(memento, origin, true);
}
