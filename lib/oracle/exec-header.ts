// What the kernel reads at the start of a file it is asked to run: a `#!` line (the
// interpreter and its one optional argument, as fs/binfmt_script.c splits them) or an ELF
// header's PT_INTERP (the dynamic loader). Both name files that run with the executable and
// that its bytes do not hold (round-27 01-07). Pure: it reads the first bytes it is given.

/** The kernel reads this many bytes of a file's start (BINPRM_BUF_SIZE). */
export const KERNEL_HEAD_BYTES = 256;

export type ExecHeader =
  /** A `#!` line: `interpreter` as the kernel names it, `argument` (one string, '' for none). */
  | { kind: 'script'; interpreter: string; argument: string }
  /** An ELF executable with a dynamic loader (PT_INTERP). */
  | { kind: 'elf'; interpreter: string }
  /** An ELF whose program headers or loader name lie past the bytes given: not judged. */
  | { kind: 'elf-unread' };

const spaceTab = (c: number) => c === 0x20 || c === 0x09;

/**
 * The `#!` line as the kernel splits it: the line ends at the first newline within the first
 * 256 bytes (or there), trailing blanks and tabs are dropped, the interpreter name runs to the
 * first blank, tab or NUL (a CR is part of it), and the rest after blanks is one argument
 * that ends at a NUL. Null when there is no `#!` or nothing follows it.
 */
function scriptHeader(head: Buffer): ExecHeader | null {
  const buf = head.subarray(0, Math.min(head.length, KERNEL_HEAD_BYTES));
  let end = buf.indexOf(0x0a, 2);
  if (end < 0) end = buf.length;
  while (end > 2 && spaceTab(buf[end - 1]!)) end--;
  let name = 2;
  while (name < end && spaceTab(buf[name]!)) name++;
  if (name >= end) return null;
  let sep = name;
  while (sep < end && !spaceTab(buf[sep]!) && buf[sep] !== 0) sep++;
  // `#!` then a NUL names the empty path, which runs nothing.
  if (sep === name) return null;
  const interpreter = buf.subarray(name, sep).toString('latin1');
  let argument = '';
  if (sep < end && buf[sep] !== 0) {
    let arg = sep;
    while (arg < end && spaceTab(buf[arg]!)) arg++;
    const nul = buf.indexOf(0, arg);
    argument = buf.subarray(arg, nul >= 0 && nul < end ? nul : end).toString('latin1');
  }
  return { kind: 'script', interpreter, argument };
}

const PT_INTERP = 3;

/** PT_INTERP of an ELF file from its first bytes (both classes, both byte orders). */
function elfHeader(head: Buffer): ExecHeader | null {
  if (head.length < 20) return { kind: 'elf-unread' };
  const wide = head[4] === 2;
  const little = head[5] !== 2;
  const u16 = (o: number) => (little ? head.readUInt16LE(o) : head.readUInt16BE(o));
  const u32 = (o: number) => (little ? head.readUInt32LE(o) : head.readUInt32BE(o));
  const word = (o: number) => (wide ? Number(little ? head.readBigUInt64LE(o) : head.readBigUInt64BE(o)) : u32(o));
  const headerSize = wide ? 64 : 52;
  if (head.length < headerSize) return { kind: 'elf-unread' };
  const phoff = word(wide ? 0x20 : 0x1c);
  const phentsize = u16(wide ? 0x36 : 0x2a);
  const phnum = u16(wide ? 0x38 : 0x2c);
  const needed = wide ? 56 : 32;
  if (phnum === 0) return null;
  if (phentsize < needed || !Number.isSafeInteger(phoff) || phoff + phnum * phentsize > head.length) return { kind: 'elf-unread' };
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (u32(ph) !== PT_INTERP) continue;
    const offset = word(ph + (wide ? 8 : 4));
    const size = word(ph + (wide ? 32 : 16));
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset + size > head.length) return { kind: 'elf-unread' };
    const raw = head.subarray(offset, offset + size);
    const nul = raw.indexOf(0);
    return { kind: 'elf', interpreter: raw.subarray(0, nul < 0 ? raw.length : nul).toString('latin1') };
  }
  return null;
}

/** What the kernel would read from `head` (a file's first bytes) before running it, or null for nothing it names. */
export function execHeader(head: Buffer): ExecHeader | null {
  if (head.length >= 2 && head[0] === 0x23 && head[1] === 0x21) return scriptHeader(head);
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return elfHeader(head);
  return null;
}

/**
 * The words of a `#!` argument that could name a file: split at blanks and tabs (env -S splits
 * it so; other interpreters take it whole, which a generous reading covers), and an option's
 * `=value`.
 */
export function headerWords(argument: string): string[] {
  return argument.split(/[ \t]+/).flatMap((w) => (w.includes('=') ? [w, w.slice(w.indexOf('=') + 1)] : [w])).filter((w) => w !== '');
}
