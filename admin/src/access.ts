/** Who may open which screen. The gateway enforces the same rule on its side. */
export function canAccess(user: object | undefined | null, screen: string): boolean {
  if (!user) return false;
  if (screen === 'admin') return (user as { is_superuser?: unknown }).is_superuser === true;
  return true;
}
