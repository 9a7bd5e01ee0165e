/** Who may open which screen. The gateway enforces the same rule on its side. */
export function canAccess(user: { is_superuser?: unknown } | undefined | null, screen: string): boolean {
  if (!user) return false;
  if (screen === 'admin') return user.is_superuser === true;
  return true;
}
