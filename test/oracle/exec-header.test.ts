// The kernel's reading of a file's start (lib/oracle/exec-header.ts): `#!` lines split as
// fs/binfmt_script.c splits them, and an ELF file's loader (PT_INTERP).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { execHeader, execHeaderExtent, headerWords } from '../../lib/oracle/exec-header.js';
import { elfWithLoader } from '../helpers/elf.js';

const script = (text: string) => execHeader(Buffer.from(text, 'latin1'));

describe('execHeader: a #! line as the kernel splits it', () => {
  it('the interpreter runs to a blank, tab or NUL; a CR is part of it; the rest is one argument', () => {
    expect(script('#!/bin/sh\necho\n')).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: '' });
    expect(script('#! \t/usr/bin/env -S sh lib/c.sh  \t\nx')).toEqual({ kind: 'script', interpreter: '/usr/bin/env', argument: '-S sh lib/c.sh' });
    expect(script('#!/repo/lib/interp\r\n')).toEqual({ kind: 'script', interpreter: '/repo/lib/interp\r', argument: '' });
    expect(script('#!/repo/lib/interp\0x\n')).toEqual({ kind: 'script', interpreter: '/repo/lib/interp', argument: '' });
    expect(script('#!/bin/sh a\0b\n')).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: 'a' });
    expect(script('#!  \n')).toBeNull();
    expect(script('#!')).toBeNull();
    expect(script('echo\n')).toBeNull();
    // With no newline in the first 256 bytes, the line ends before byte 255 (round-28 01).
    expect(script(`#!/bin/sh ${'a'.repeat(300)}\n`)).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: 'a'.repeat(255 - 10) });
    // A newline at byte 255 still ends it there.
    expect(script(`#!/bin/sh ${'a'.repeat(245)}\n`)).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: 'a'.repeat(245) });
    // No blank, tab or NUL ends the name before byte 255: the kernel refuses the file (a shell then reads it).
    expect(script(`#!/${'a'.repeat(300)}`)).toBeNull();
    expect(script('#!/bin/sh')).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: '' });
    // A blank at byte 255 ends the name (round-29 01).
    const long = `/${'a'.repeat(252)}`;
    expect(script(`#!${long} xyz`)).toEqual({ kind: 'script', interpreter: long, argument: '' });
    // A short file with no newline keeps a trailing blank in its argument (the buffer is zero-filled: round-29 02).
    expect(script('#!/bin/sh /r/b.sh ')).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: '/r/b.sh ' });
    // A newline after a NUL is not seen: the line ends at byte 255.
    expect(script('#!/bin/sh a\0b\nc')).toEqual({ kind: 'script', interpreter: '/bin/sh', argument: 'a' });
  });

  it('the interpreter never holds a blank, tab, NUL or newline, and the argument no NUL or newline (any bytes)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 320 }), (tail) => {
        const h = execHeader(Buffer.concat([Buffer.from('#!'), Buffer.from(tail)]));
        if (h === null || h.kind === 'undecodable') return;
        expect(h.kind).toBe('script');
        if (h.kind !== 'script') return;
        expect(h.interpreter).not.toMatch(/[ \t\0\n]/);
        expect(h.interpreter.length).toBeGreaterThan(0);
        expect(h.argument).not.toMatch(/[\0\n]/);
        expect(h.argument).not.toMatch(/^[ \t]|[ \t]$/);
      }),
    );
  });

  it('headerWords: blanks and tabs split (an option value is read by path-bound.ts)', () => {
    expect(headerWords('-S sh  lib/c.sh\t--rc=/repo/x')).toEqual(['-S', 'sh', 'lib/c.sh', '--rc=/repo/x']);
  });
});

describe('execHeader: an ELF loader', () => {
  it('reads PT_INTERP of 64- and 32-bit files, and of a real one', () => {
    expect(execHeader(elfWithLoader('/repo/lib/ld.so'))).toEqual({ kind: 'elf', interpreter: '/repo/lib/ld.so' });
    expect(execHeader(elfWithLoader('lib/ld.so', false))).toEqual({ kind: 'elf', interpreter: 'lib/ld.so' });
    const real = execHeader(readFileSync('/bin/true').subarray(0, 65536));
    expect(real?.kind).toBe('elf');
    expect(real?.kind === 'elf' && real.interpreter).toMatch(/^\/lib.*ld-linux.*\.so/);
  });

  it('the class comes from the machine, as the kernel reads it: an x86-64 file marked 32-bit is read as 64-bit (round-28 04), an i486 one marked 64-bit as 32-bit (round-29 03)', () => {
    const b = elfWithLoader('/repo/lib/ld.so');
    b[4] = 1;
    expect(execHeader(b)).toEqual({ kind: 'elf', interpreter: '/repo/lib/ld.so' });
    const i486 = elfWithLoader('/repo/lib/ld.so', false);
    i486.writeUInt16LE(6, 18);
    i486[4] = 2;
    expect(execHeader(i486)).toEqual({ kind: 'elf', interpreter: '/repo/lib/ld.so' });
  });

  it('a name that is not valid UTF-8 is undecodable (round-28 02)', () => {
    expect(execHeader(Buffer.concat([Buffer.from('#!/repo/lib/interp'), Buffer.from([0xe9]), Buffer.from('\n')]))).toEqual({ kind: 'undecodable' });
    expect(execHeader(Buffer.concat([Buffer.from('#!/bin/sh /repo/a'), Buffer.from([0xe9]), Buffer.from('.sh\n')]))).toEqual({ kind: 'undecodable' });
    expect(execHeader(elfWithLoader('/repo/ld\u00e9'.replace('\u00e9', '\xe9')))).toEqual({ kind: 'undecodable' });
    expect(script('#!/usr/bin/caf\u00c3\u00a9\n')).toEqual({ kind: 'script', interpreter: '/usr/bin/caf\u00e9', argument: '' });
  });

  it('a loader past the bytes given is not judged (the caller refuses it); no PT_INTERP is nothing', () => {
    const b = elfWithLoader('/x');
    expect(execHeader(b.subarray(0, 100))).toEqual({ kind: 'elf-unread' });
    b.writeUInt32LE(1, 64); // PT_LOAD
    expect(execHeader(b)).toBeNull();
  });
});

describe('execHeaderExtent', () => {
  it('is the prefix the answer depends on: 256 bytes of a #! file, four of anything else, an ELF file up to its loader name', () => {
    expect(execHeaderExtent(Buffer.from('#!/bin/sh\necho\n'))).toBe(256);
    expect(execHeaderExtent(Buffer.from('plain text'))).toBe(4);
    for (const wide of [true, false]) {
      const elf = elfWithLoader('/lib/ld.so', wide);
      const extent = execHeaderExtent(elf);
      expect(extent).toBeLessThanOrEqual(elf.length);
      // Those bytes alone give the same answer; one fewer does not.
      expect(execHeader(elf.subarray(0, extent))).toEqual(execHeader(elf));
      expect(execHeader(elf.subarray(0, extent - 1))).not.toEqual(execHeader(elf));
    }
    // One whose program headers lie past what was read: all of it.
    expect(execHeaderExtent(elfWithLoader('/lib/ld.so').subarray(0, 70))).toBe(Infinity);
  });

  it('any change inside the extent that changes the answer is inside it (a byte flipped in each position)', () => {
    const elf = elfWithLoader('/lib/ld.so');
    const extent = execHeaderExtent(elf);
    const answer = JSON.stringify(execHeader(elf));
    for (let i = extent; i < elf.length; i++) {
      const changed = Buffer.from(elf);
      changed[i] = changed[i]! ^ 0xff;
      expect(JSON.stringify(execHeader(changed)), `byte ${i}`).toBe(answer);
    }
  });
});
