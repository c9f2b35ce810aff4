interface Store {
  get(key: string): number;
  bump(key: string): void;
}

export class Counter {
  private readonly store: Store;

  constructor() {
    this.store = this.createStore();
  }

  add(key: string): void {
    this.store.bump(key);
  }

  count(key: string): number {
    return this.store.get(key);
  }

  /** The cells stay private: callers get only the methods of the object returned. */
  createStore(): Store {
    const cells = new Map<string, number>();
    return {
      get(key: string): number {
        return cells.get(key) ?? 0;
      },
      bump(key: string): void {
        cells.set(key, (cells.get(key) ?? 0) + 1);
      },
    };
  }
}
