/** Response header announcing a key's coming expiry: `Keygate-Key-Expires: 2026-03-31; days-left=5`. */
export const EXPIRY_HEADER = 'Keygate-Key-Expires';
