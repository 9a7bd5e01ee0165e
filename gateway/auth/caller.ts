/** Who is calling, for the per-address limits on public operations. */
export interface Caller {
  ip: string;
}
