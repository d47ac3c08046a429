/**
 * The reasons src/api/browser.ts gives its errors, and its fixed backoff: constants the messages
 * (./messages) and the commands read without the browser's answer handling. Imports nothing.
 */

/** Wait before retrying a read whose `Retry-After` the browser hides (a fixed pause, not doubled). */
export const HIDDEN_RETRY_AFTER_WAIT_MS = 2_000;
/** `ApiError.reason` of a rate limit whose `Retry-After` the browser hid. */
export const HIDDEN_RETRY_AFTER = 'Retry-After hidden by the browser';
/** `ApiError.reason` of a redirect the browser did not let the client see. */
export const HIDDEN_REDIRECT = 'redirect hidden by the browser';
/** `ApiError.reason` of a request not sent: the editor's policy in a browser blocks http: to this host. */
export const HTTP_BLOCKED = 'http: blocked in the browser';
/**
 * `ApiError.reason` of an answer the browser hid from a service that answered through CORS
 * before: an error page without CORS headers (a proxy's or gateway's), not a CORS setup.
 */
export const HIDDEN_ERROR_PAGE = 'error page hidden by the browser';
/** `ApiError.reason` of a request the browser blocked because the service allows no other origin. */
export const CORS_REFUSED = 'CORS';
