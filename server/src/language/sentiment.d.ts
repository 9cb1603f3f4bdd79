declare module 'sentiment' {
  /** AFINN-165 valence of a text: each rated word's score (-5..5), a negator before it flipping it. */
  class Sentiment {
    analyze(text: string): { score: number; comparative: number; positive: string[]; negative: string[] };
  }
  export = Sentiment;
}
