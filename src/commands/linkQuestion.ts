/**
 * The modal a link naming another service asks before the switch. Imports no `vscode`, so its
 * words are unit-tested.
 */
import * as l10n from '@vscode/l10n';
import { serviceLabel } from '../services/labels';
import { truncate } from '../presentation/format';
import { singleLine } from '../text/text';

export interface SwitchQuestion {
  message: string;
  detail: string;
  /** The affirmative button; VS Code adds Cancel, which closes the modal and does nothing. */
  button: string;
}

/**
 * What to ask before switching to `target`, a service URL from a link. One that is new, another
 * path on an origin whose key is stored, would be sent that key once the user agrees, so the button
 * says so ("Send Key to /path"): on a reverse proxy shared by several apps, the path is another
 * app.
 */
export function switchQuestion(target: string, known: boolean): SwitchQuestion {
  const { host, origin, pathname } = new URL(target);
  const where = truncate(singleLine(`${host}${pathname === '/' ? '' : pathname}`), 200).text;
  if (known) {
    return {
      message: l10n.t('Switch to the service at {0}?', where),
      detail: l10n.t('The link is for a report on {0}. The views and panels then show that service.', where),
      button: l10n.t('Switch Service'),
    };
  }
  const path = truncate(singleLine(pathname), 60).text;
  return {
    message: l10n.t('Send the API key of {0} to {1}?', serviceLabel(origin), path),
    detail: l10n.t(
      'The link names {0}, a path on {1} that Page Reports has not used. The API key stored for {1} will be sent to that path, and the views and panels then show that service. Cancel if you did not expect this link.',
      where,
      serviceLabel(origin),
    ),
    button: l10n.t('Send Key to {0}', path),
  };
}
