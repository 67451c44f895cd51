import assert from 'node:assert/strict';
import { chartGeometry, isolatedPoints, niceMax, pathFor } from '../src/chart.ts';

describe('chart math', () => {
  it('rounds the y scale up to 1, 2, 2.5 or 5 times a power of ten', () => {
    assert.deepEqual(
      [0, 0.3, 1, 3, 7, 12, 24, 26, 180, 5001].map(niceMax),
      [1, 0.5, 1, 5, 10, 20, 25, 50, 200, 10000],
    );
  });

  it('draws a path through the values and breaks it at gaps', () => {
    const d = pathFor([0, 10, null, 5, 10], 10);
    const moves = d.match(/M/g) ?? [];
    assert.equal(moves.length, 2, 'a new subpath after the gap');
    assert.match(
      d,
      new RegExp(`^M${chartGeometry.left}\\.0 ${chartGeometry.top + chartGeometry.plotHeight}\\.0 L`),
    );
    assert.match(d, new RegExp(`L\\d+\\.\\d ${chartGeometry.top}\\.0`), 'the maximum touches the top');
  });

  it('marks values with gaps on both sides as dots, since a line needs two points', () => {
    assert.equal(isolatedPoints([null, 3, null, 4, 5], 5).length, 1);
    assert.equal(isolatedPoints([7], 10).length, 1);
    assert.equal(isolatedPoints([1, 2], 10).length, 0);
    assert.equal(pathFor([null, null], 10), '');
  });
});
