// The WHATWG URL class exists in both runtimes shared code runs in (Node and browsers), but
// neither lib "ES2023" nor the absence of Node/DOM types declares it. Only what shared uses.
declare class URL {
  constructor(input: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
}
