/** An email address as users are known by: something@somewhere, no spaces, at most 254 characters. */
export const USER_EMAIL = /^[^@\s]+@[^@\s]+$/;
export const USER_EMAIL_MAX = 254;

/** A user's display name, and an API key's label: 1 to 100 characters. */
export const USER_NAME_MAX = 100;
export const KEY_LABEL_MAX = 100;
