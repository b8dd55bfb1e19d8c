// Every text the browser auth shows or returns: the login page and the JSON errors of guarded requests.

export const LOGIN_TITLE = 'Sign in';
export const LOGIN_INTRO = 'Sign in with your web login and its secret (`baton web add-user` creates one).';
export const LOGIN_INTRO_TOKEN = 'Sign in as the operator with the gateway api_token.';
export const LOGIN_NAME_LABEL = 'Name';
export const LOGIN_TOKEN_LABEL = 'API token';
export const LOGIN_SECRET_LABEL = 'Secret';
export const LOGIN_SUBMIT = 'Sign in';
export const LOGIN_FAILED = 'Wrong login or secret.';
export const LOGIN_BUSY = 'Too many sign-ins are being checked right now; try again in a moment.';
export const SIGN_OUT = 'Sign out';
export const LOGIN_RATE_LIMITED =
  'Too many failed sign-ins from this address or for this login; try again later.';

export const NOT_SIGNED_IN = 'not signed in';
export const CSRF_MISSING = 'missing or wrong x-csrf-token header';
export const CROSS_SITE = 'cross-site request refused';
export const TOO_MANY_LOGINS = 'too many failed sign-ins; try again later';
