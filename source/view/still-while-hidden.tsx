import {memo, type ReactNode} from 'react';

type Props = {hidden: boolean; children: ReactNode};

/**
 * Renders its children, and skips re-rendering them for as long as they stay hidden. The list
 * panes stay mounted (display none) so their state survives pane switches; without this, every
 * key press re-rendered the hidden one's rows too. They render again, with everything current,
 * the moment they are shown, and once as they are hidden (so they lose the keyboard).
 */
export const StillWhileHidden = memo(
	function StillWhileHidden({children}: Props) {
		return <>{children}</>;
	},
	(previous, next) => previous.hidden && next.hidden,
);
