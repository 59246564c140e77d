import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leastBusyLane } from '../../../build/snapshot/choose-build-lane.ts';

describe('the build worker a batch goes to', () => {
  it('is the one with the fewest unanswered batches', () => {
    assert.equal(leastBusyLane([3, 1, 2]), 1);
    assert.equal(leastBusyLane([0, 5]), 0);
    assert.equal(leastBusyLane([9, 9, 0]), 2);
  });

  it('is the lowest index among equals, so batches alternate while the workers keep pace', () => {
    assert.equal(leastBusyLane([2, 2, 2]), 0);
    assert.equal(leastBusyLane([4, 1, 1]), 1);
    const outstanding = [0, 0];
    const order: number[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const lane = leastBusyLane(outstanding);
      order.push(lane);
      outstanding[lane]! += 1;
    }
    assert.deepEqual(order, [0, 1, 0, 1]);
  });

  it('refuses to choose among no workers', () => {
    assert.throws(() => leastBusyLane([]), /no build worker/);
  });
});
