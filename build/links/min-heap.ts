/** A binary min-heap keyed by a number: the run's queue of hosts ordered by when each may next start. */
interface Entry<T> {
  key: number;
  value: T;
}

/** Push and pop in O(log n); equal keys come out in no particular order. */
export class MinHeap<T> {
  readonly #items: Array<Entry<T>> = [];

  get size(): number {
    return this.#items.length;
  }

  push(key: number, value: T): void {
    this.#items.push({ key, value });
    let index = this.#items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.#key(parent) <= key) break;
      this.#swap(parent, index);
      index = parent;
    }
  }

  /** The smallest key, without removing it. */
  peekKey(): number | undefined {
    return this.#items[0]?.key;
  }

  pop(): T | undefined {
    const top = this.#items[0];
    const last = this.#items.pop();
    if (top === undefined || last === undefined) return undefined;
    if (this.#items.length === 0) return top.value;
    this.#items[0] = last;
    let index = 0;
    for (;;) {
      let smallest = index;
      for (const child of [2 * index + 1, 2 * index + 2]) {
        if (child < this.#items.length && this.#key(child) < this.#key(smallest)) smallest = child;
      }
      if (smallest === index) return top.value;
      this.#swap(smallest, index);
      index = smallest;
    }
  }

  #key(index: number): number {
    return (this.#items[index] as Entry<T>).key;
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    [items[a], items[b]] = [items[b] as Entry<T>, items[a] as Entry<T>];
  }
}
