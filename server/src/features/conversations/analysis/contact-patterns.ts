/** Patterns for contact details in free text (the first match is taken). */
export const CONTACT_PATTERNS = {
  // Bounded parts (a local part is at most 64 characters, a label 63, RFC 5321): with unbounded
  // ones a long run of letters without an @ cost time quadratic in its length at every match.
  email: /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}\.[a-z]{2,24}/i,
  // An optional +, then 7 to 15 digits with the usual separators (like the lead's PhoneSchema).
  phone: /(?<![\w+])\+?\d[\d ().-]{5,20}\d(?!\w)/,
  // A URL, without the sentence's own trailing punctuation.
  url: /\b(?:https?:\/\/|www\.)[^\s<>"')]*[^\s<>"').,;:!?]/i,
} as const;
