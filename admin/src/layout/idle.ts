/** Runs `task` when the browser has nothing else to do (at the latest after 2 s); Safari has no requestIdleCallback. */
export const whenIdle = (task: () => void): number =>
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback(task, { timeout: 2000 })
    : (setTimeout(task, 200) as unknown as number);

export const cancelIdle = (handle: number) =>
  typeof cancelIdleCallback === 'function' ? cancelIdleCallback(handle) : clearTimeout(handle);
