import type { TooltipProps } from '@mui/material/Tooltip';
import { useForkRef } from '@mui/material/utils';
import { cloneElement, forwardRef, Suspense, type ReactElement, type Ref } from 'react';
import { afterFirstPaintModule, usePainted } from './firstPaint';

export type * from '@mui/material/Tooltip';

/**
 * MUI's Tooltip itself (with Popper and popper.js), kept out of the first screen's code: fetched once the app has been
 * painted, when the first tooltips take over from their children.
 */
const mui = afterFirstPaintModule(() => import('@mui/material/Tooltip'));
const MuiTooltip = mui.component((module) => module.default);

/**
 * MUI's Tooltip, mounted only once the app has been painted for the first time. The production build gives this
 * module to every `Tooltip` imported from '@mui/material' (react-admin's included: see `deferTooltips` in
 * vite.config.mts).
 *
 * Why: a Tooltip sets state from its child's ref as it mounts. React runs such an update synchronously at the end of
 * the commit, and first runs every pending mount effect of the app, so one tooltip on the first screen (react-admin
 * has them in the app bar and on sortable headings) holds the first paint back by a second render of the whole app.
 * Until the first paint, the child is rendered as the tooltip renders it (the title as its accessible name), without
 * the tooltip itself; a moment later, once MUI's Tooltip has been fetched, the tooltip takes it over.
 *
 * Only the component is given: nothing in the app or react-admin takes `tooltipClasses` from '@mui/material', and a
 * build that did would fail on the missing export rather than load the tooltip with the first screen.
 */

/** The child as the tooltip would render it while closed: named by the title, or described by it. */
function Untooltipped({ props, forwardedRef }: { props: TooltipProps; forwardedRef: Ref<HTMLElement> }) {
  const { children, title, describeChild, disableHoverListener, className } = props;
  const child = children as ReactElement<Record<string, unknown>> & { props: { ref?: Ref<HTMLElement> } };
  const ref = useForkRef(child.props.ref, forwardedRef);
  const named = typeof title === 'string' ? title : null;
  return cloneElement(child, {
    ...(describeChild ? { title: named !== null && !disableHoverListener ? named : null } : { 'aria-label': named }),
    ...child.props,
    className: [className, child.props.className].filter(Boolean).join(' ') || undefined,
    ref,
  });
}

const Tooltip = forwardRef<HTMLElement, TooltipProps>(function Tooltip(props, ref) {
  const untooltipped = <Untooltipped props={props} forwardedRef={ref} />;
  if (!usePainted()) return untooltipped;
  return (
    <Suspense fallback={untooltipped}>
      <MuiTooltip ref={ref} {...props} />
    </Suspense>
  );
});

export default Tooltip;
