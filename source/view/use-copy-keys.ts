import {sanitizeLine} from '../format/sanitize.js';
import {normalizeId} from '../wire/ids.js';
import {clipboardRoute, type ClipboardRoute} from '../state/clipboard-route.js';
import type {DashboardController} from '../state/dashboard-types.js';
import {type Say, useClipboard} from './use-clipboard.js';
import {keyOf} from './keymap.js';
import {type KeyRegistry, useKeyHandlers} from './use-key-dispatch.js';

/**
 * `y` copies the selected conversation's id, `Y` its page in the web UI, with OSC 52 (over SSH
 * too), wrapped for tmux or screen as the clipboard route says (state/clipboard-route.ts). When
 * tmux refuses or keeps no copy, the notice says which setting it needs (use-clipboard.ts).
 */
export function useCopyKeys(registry: KeyRegistry, controller: DashboardController, selectedKey: string | null | undefined, say: Say, route: () => Promise<ClipboardRoute> = clipboardRoute): void {
	const copy = useClipboard(say, route);
	const handlers = {
		copyId: () => {
			if (!selectedKey) return say('No conversation selected.');
			const link = controller.conversationLink?.(selectedKey);
			const id = link ? link.slice(link.lastIndexOf('/') + 1) : normalizeId(selectedKey);
			copy(id, `the id ${sanitizeLine(id.slice(0, 8))}… (${keyOf('copyUrl')}: its web page)`);
		},
		copyUrl: () => {
			if (!selectedKey) return say('No conversation selected.');
			const link = controller.conversationLink?.(selectedKey);
			if (!link) return say('That conversation is not in the list (ctrl-r refreshes it).');
			copy(link, `its web page ${sanitizeLine(link)}`);
		},
	};
	// The dashboard's own registry (it is provided below the dashboard, not above it), as a fallback like its other keys.
	useKeyHandlers('conversations', handlers, {registry, fallback: true});
	useKeyHandlers('timeline', handlers, {registry, fallback: true});
}
