// A regular expression built on first use. A class of Unicode properties (\p{…} under /u)
// takes 60 to 160 µs to build; at module level every command paid it at start-up (about
// 0.7 ms for the few the parser and the sanitizer hold), though text that is printable
// ASCII never reaches one. Pure.

export function lazyRegExp(make: () => RegExp): () => RegExp {
  let built: RegExp | undefined;
  return () => (built ??= make());
}
