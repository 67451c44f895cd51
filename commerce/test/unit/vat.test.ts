import assert from 'node:assert/strict';
import { addVat, divideRounded, multiplySplit, splitGross, sumSplits } from '../../src/pricing/vat.ts';

describe('VAT arithmetic', () => {
  describe('divideRounded (half away from zero)', () => {
    const cases: Array<[number, number, number]> = [
      [5, 2, 3],
      [3, 2, 2],
      [7, 2, 4],
      [-5, 2, -3],
      [5, -2, -3],
      [-5, -2, 3],
      [4, 2, 2],
      [24, 10, 2],
      [25, 10, 3],
      [-25, 10, -3],
      [0, 7, 0],
    ];
    for (const [n, d, expected] of cases) {
      it(`rounds ${n}/${d} to ${expected}`, () => assert.equal(divideRounded(n, d), expected));
    }
    it('refuses a zero denominator, fractions and unsafe integers', () => {
      assert.throws(() => divideRounded(1, 0), RangeError);
      assert.throws(() => divideRounded(1.5, 2), RangeError);
      assert.throws(() => divideRounded(2 ** 53, 3), RangeError);
    });
  });

  describe('splitGross (prices include VAT)', () => {
    const cases: Array<[number, number, number, number]> = [
      // gross, bp, net, vat
      [119, 1900, 100, 19],
      [1999, 1900, 1680, 319],
      [1, 1900, 1, 0],
      [0, 1900, 0, 0],
      [107, 700, 100, 7],
      [10, 700, 9, 1],
      [2099, 810, 1942, 157],
      [1, 10000, 1, 0], // 0.5 rounds up
      [3, 10000, 2, 1], // 1.5 rounds up
      [5, 10000, 3, 2], // 2.5 rounds up, not to even
      [1234, 0, 1234, 0],
    ];
    for (const [gross, bp, net, vat] of cases) {
      it(`splits ${gross} at ${bp} bp into net ${net} + vat ${vat}`, () => {
        assert.deepEqual(splitGross(gross, bp), { net, vat, gross });
      });
    }
  });

  describe('addVat (net prices)', () => {
    const cases: Array<[number, number, number]> = [
      // net, bp, vat
      [100, 1900, 19],
      [50, 1900, 10], // 9.5 rounds up
      [150, 700, 11], // 10.5 rounds up
      [149, 700, 10],
      [1512, 1900, 287],
      [100, 0, 0],
      [1, 260, 0],
      [20, 260, 1], // 0.52
    ];
    for (const [net, bp, vat] of cases) {
      it(`adds ${vat} VAT to ${net} at ${bp} bp`, () => {
        assert.deepEqual(addVat(net, bp), { net, vat, gross: net + vat });
      });
    }
  });

  describe('rates', () => {
    it('refuses rates outside 0..10000 bp or not whole', () => {
      for (const bp of [-1, 10001, 19.5]) {
        assert.throws(() => splitGross(100, bp), RangeError);
        assert.throws(() => addVat(100, bp), RangeError);
      }
    });
  });

  describe('line totals', () => {
    it('multiplies the rounded unit price, never re-rounds the line', () => {
      const unit = addVat(50, 1900); // 50 + 10 (9.5 rounded up)
      assert.deepEqual(multiplySplit(unit, 3), { net: 150, vat: 30, gross: 180 });
      // Rounding the line's VAT instead (28.5 → 29) would differ: per-unit is the documented rule.
      assert.equal(divideRounded(150 * 1900, 10000), 29);
    });
    it('sums lines into totals', () => {
      assert.deepEqual(sumSplits([splitGross(119, 1900), addVat(50, 1900), { net: 0, vat: 0, gross: 0 }]), {
        net: 150,
        vat: 29,
        gross: 179,
      });
      assert.deepEqual(sumSplits([]), { net: 0, vat: 0, gross: 0 });
    });
  });
});
