/** Injection token of the application's {@link TokenVerifier} (PBO bearer tokens). */
export const TOKEN_VERIFIER = Symbol('TOKEN_VERIFIER');
/** Injection token of the application's {@link AuthConfig}. */
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
