/**
 * localStorage that never throws: storage can be disabled, full or blocked for third-party
 * frames, and the widget must never break the host page (house-style.md § Errors, Widget).
 */
export const storage = {
  read<T>(key: string): T | undefined {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? undefined : (JSON.parse(raw) as T);
    } catch {
      return undefined;
    }
  },
  write(key: string, value: unknown): void {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage is unavailable: the conversation simply does not survive a reload.
    }
  },
  remove(key: string): void {
    try {
      localStorage.removeItem(key);
    } catch {
      // Same as above.
    }
  },
};
