/** A key cap shown next to the control it triggers. */
export function Kbd({ children }: { children: string }) {
  return <kbd className="kbd">{children}</kbd>;
}
