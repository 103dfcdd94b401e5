/**
 * The public API's own version, as the OpenAPI document names it: raised when a route changes
 * in a way a client would notice (a field removed or retyped), not with each release.
 */
export const API_VERSION = "1.0.0";
