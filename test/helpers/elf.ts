// Hand-made ELF files for the tests of what the kernel reads at a file's start.

/** A minimal ELF file: the header, one PT_INTERP program header, and the loader's name. */
export function elfWithLoader(loader: string, wide = true): Buffer {
  const name = Buffer.from(`${loader}\0`, 'latin1');
  const headerSize = wide ? 64 : 52;
  const phSize = wide ? 56 : 32;
  const b = Buffer.alloc(headerSize + phSize + name.length);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = wide ? 2 : 1;
  b[5] = 1;
  b[6] = 1;
  b.writeUInt16LE(2, 16);
  b.writeUInt16LE(wide ? 62 : 3, 18); // x86-64, i386
  if (wide) {
    b.writeBigUInt64LE(64n, 0x20);
    b.writeUInt16LE(phSize, 0x36);
    b.writeUInt16LE(1, 0x38);
    b.writeUInt32LE(3, 64);
    b.writeBigUInt64LE(BigInt(headerSize + phSize), 64 + 8);
    b.writeBigUInt64LE(BigInt(name.length), 64 + 32);
  } else {
    b.writeUInt32LE(52, 0x1c);
    b.writeUInt16LE(phSize, 0x2a);
    b.writeUInt16LE(1, 0x2c);
    b.writeUInt32LE(3, 52);
    b.writeUInt32LE(headerSize + phSize, 52 + 4);
    b.writeUInt32LE(name.length, 52 + 16);
  }
  name.copy(b, headerSize + phSize);
  return b;
}
