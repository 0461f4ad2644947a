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
  | { kind: 'elf-unread' }
  /** A name in it is not valid UTF-8: the file system would be asked for other bytes than the kernel's (round-28 02). */
  | { kind: 'undecodable' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text, or null when they are not valid UTF-8 (a path made of them could not be named as a string). */
function decoded(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

const kernelBuffer = Buffer.alloc(KERNEL_HEAD_BYTES);

const spaceTab = (c: number) => c === 0x20 || c === 0x09;

/**
 * The `#!` line as fs/binfmt_script.c splits it, step by step on the same zero-filled 256-byte
 * buffer (round-28 01, round-29 01/02): the line ends at the first newline before any NUL, or,
 * with none, at byte 255 when a blank, tab or NUL ends the name by then (else the kernel
 * refuses the file and a shell runs it itself); blanks and tabs before that end are dropped;
 * the interpreter name runs to a blank, a tab or a NUL (a CR is part of it); the rest after
 * blanks is one argument, up to a NUL. Null when the kernel would not run it as a script.
 */
function scriptHeader(head: Buffer): ExecHeader | null {
  // One zero-filled buffer for every call (reads are synchronous): thousands of node_modules/.bin scripts each allocated one.
  const buf = kernelBuffer.fill(0);
  head.copy(buf, 0, 0, Math.min(head.length, KERNEL_HEAD_BYTES));
  const last = KERNEL_HEAD_BYTES - 1;
  // next_non_spacetab and next_terminator: `first` to `last` inclusive, -1 for none.
  const nonSpaceTab = (first: number, to: number) => {
    for (let i = first; i <= to; i++) if (!spaceTab(buf[i]!)) return i;
    return -1;
  };
  const terminator = (first: number, to: number) => {
    for (let i = first; i <= to; i++) if (spaceTab(buf[i]!) || buf[i] === 0) return i;
    return -1;
  };
  // strnchr stops at a NUL.
  let end = -1;
  for (let i = 0; i < KERNEL_HEAD_BYTES && buf[i] !== 0; i++) {
    if (buf[i] === 0x0a) {
      end = i;
      break;
    }
  }
  if (end < 0) {
    const first = nonSpaceTab(2, last);
    if (first < 0 || terminator(first, last) < 0) return null;
    end = last;
  }
  while (end > 0 && spaceTab(buf[end - 1]!)) end--;
  const name = nonSpaceTab(2, end);
  if (name < 0 || name === end) return null;
  const sep = terminator(name, end);
  let arg = -1;
  if (sep >= 0 && buf[sep] !== 0) arg = nonSpaceTab(sep, end);
  buf[end] = 0;
  if (arg >= 0) buf[sep] = 0;
  const cString = (from: number) => buf.subarray(from, buf.indexOf(0, from));
  const nameBytes = cString(name);
  // `#!` then a NUL names the empty path, which runs nothing.
  if (nameBytes.length === 0) return null;
  const interpreter = decoded(nameBytes);
  const argument = arg >= 0 ? decoded(cString(arg)) : '';
  if (interpreter === null || argument === null) return { kind: 'undecodable' };
  return { kind: 'script', interpreter, argument };
}

const PT_INTERP = 3;

/** Machines whose ELF files the kernel loads as 64-bit whatever EI_CLASS says (x86-64, AArch64, LoongArch), and as 32-bit (i386, i486: round-29 03, ARM). */
const WIDE_MACHINES = new Set([62, 183, 258]);
const NARROW_MACHINES = new Set([3, 6, 40]);

/**
 * PT_INTERP of an ELF file from its first bytes. Read as the kernel reads its own struct: in
 * the host's byte order (little-endian on every host gate-check supports), 64- or 32-bit by
 * the machine it is for, not by the EI_CLASS byte, which binfmt_elf does not check (round-28 04).
 */
function elfHeader(head: Buffer): ExecHeader | null {
  return elfRead(head).header;
}

/** elfHeader's answer, and the furthest byte of `head` it read (all of it where it read past it: 'elf-unread'). */
function elfRead(head: Buffer): { header: ExecHeader | null; extent: number } {
  const unread = { header: { kind: 'elf-unread' } as const, extent: Infinity };
  if (head.length < 20) return unread;
  const machine = head.readUInt16LE(18);
  const wide = WIDE_MACHINES.has(machine) || (!NARROW_MACHINES.has(machine) && head[4] === 2);
  const u16 = (o: number) => head.readUInt16LE(o);
  const u32 = (o: number) => head.readUInt32LE(o);
  const word = (o: number) => (wide ? Number(head.readBigUInt64LE(o)) : u32(o));
  const headerSize = wide ? 64 : 52;
  if (head.length < headerSize) return unread;
  const phoff = word(wide ? 0x20 : 0x1c);
  const phentsize = u16(wide ? 0x36 : 0x2a);
  const phnum = u16(wide ? 0x38 : 0x2c);
  const needed = wide ? 56 : 32;
  if (phnum === 0) return { header: null, extent: headerSize };
  if (phentsize < needed || !Number.isSafeInteger(phoff) || phoff + phnum * phentsize > head.length) return unread;
  const tableEnd = Math.max(headerSize, phoff + phnum * phentsize);
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (u32(ph) !== PT_INTERP) continue;
    const offset = word(ph + (wide ? 8 : 4));
    const size = word(ph + (wide ? 32 : 16));
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset + size > head.length) return unread;
    const raw = head.subarray(offset, offset + size);
    const nul = raw.indexOf(0);
    const interpreter = decoded(raw.subarray(0, nul < 0 ? raw.length : nul));
    return { header: interpreter === null ? { kind: 'undecodable' } : { kind: 'elf', interpreter }, extent: Math.max(tableEnd, offset + size) };
  }
  return { header: null, extent: tableEnd };
}

/** What the kernel would read from `head` (a file's first bytes) before running it, or null for nothing it names. */
/**
 * How many of a file's first bytes execHeader's answer depends on: read as many again, the
 * same bytes give the same answer (lib/fsx/path-witness.ts compares them; Infinity: all
 * that was read, an ELF file whose loader lies past it).
 */
export function execHeaderExtent(head: Buffer): number {
  if (head.length >= 2 && head[0] === 0x23 && head[1] === 0x21) return KERNEL_HEAD_BYTES;
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return elfRead(head).extent;
  // Neither: the first four bytes say so (a file that is not even four bytes long is read whole).
  return 4;
}

export function execHeader(head: Buffer): ExecHeader | null {
  if (head.length >= 2 && head[0] === 0x23 && head[1] === 0x21) return scriptHeader(head);
  if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return elfHeader(head);
  return null;
}

/**
 * The words of a `#!` argument, split at blanks and tabs (env -S splits it so; other
 * interpreters take it whole, which a generous reading covers). Which of them name files, and
 * by which part (an option's value, an assignment), path-bound.ts reads.
 */
export function headerWords(argument: string): string[] {
  return argument.split(/[ \t]+/).filter((w) => w !== '');
}
