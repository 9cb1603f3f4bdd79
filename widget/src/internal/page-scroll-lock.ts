/**
 * Stops the host page from scrolling behind a full-screen chat (phones). iOS Safari ignores
 * `overflow: hidden` on the body alone, so the root element is locked too. Returns the undo.
 */
export function lockPageScroll(): () => void {
  const root = document.documentElement;
  const body = document.body;
  const saved = [root.style.overflow, body.style.overflow, root.style.overscrollBehavior];
  root.style.overflow = 'hidden';
  body.style.overflow = 'hidden';
  root.style.overscrollBehavior = 'none';
  return () => {
    [root.style.overflow, body.style.overflow, root.style.overscrollBehavior] = saved as [string, string, string];
  };
}
