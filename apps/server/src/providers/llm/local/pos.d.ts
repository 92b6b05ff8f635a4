declare module 'pos' {
  /** jsPOS (fasttag): a Brill-style tagger with the Penn Treebank tag set. */
  export class Lexer {
    lex(text: string): string[];
  }
  export class Tagger {
    tag(words: string[]): Array<[string, string]>;
  }
  const pos: { Lexer: typeof Lexer; Tagger: typeof Tagger };
  export default pos;
}
