/** Patterns for contact details in free text (the first match is taken). */
export const CONTACT_PATTERNS = {
  email: /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/i,
  // An optional +, then 7 to 15 digits with the usual separators (like the lead's PhoneSchema).
  phone: /(?<![\w+])\+?\d[\d ().-]{5,20}\d(?!\w)/,
  // A URL, without the sentence's own trailing punctuation.
  url: /\b(?:https?:\/\/|www\.)[^\s<>"')]*[^\s<>"').,;:!?]/i,
} as const;
