/**
 * What src/api/browser.ts answers under Node, whose fetch never gives a browser's opaque or
 * CORS-filtered answers nor its bare TypeErrors: nothing to do, every time. esbuild.js builds
 * the Node entry with this module in place of browser.ts (plugin `browserApart`): the size
 * row of `npm run bench` measured extension JS at 187,447 B with browser.ts in it and
 * 185,540 B without (at bec23fb; budget 150 KB, over). Unit tests and the browser entry use browser.ts itself.
 */
import type * as browser from './browser';

export * from './browserReasons';

export const hiddenRedirectError: typeof browser.hiddenRedirectError = () => undefined;
export const hiddenRetryAfterWait: typeof browser.hiddenRetryAfterWait = () => undefined;
export const withHiddenRetryAfter: typeof browser.withHiddenRetryAfter = (error) => error;
export const isBrowserFetchFailure: typeof browser.isBrowserFetchFailure = () => false;
export const browserFetchError: typeof browser.browserFetchError = async () => undefined;
export const runsInBrowser: typeof browser.runsInBrowser = () => false;
export const httpBlockedInBrowser: typeof browser.httpBlockedInBrowser = () => false;
export const httpBlockedError: typeof browser.httpBlockedError = () => undefined;
