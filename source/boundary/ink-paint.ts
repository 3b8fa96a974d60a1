import chalk from 'chalk';
import colorize from '../../node_modules/ink/build/colorize.js';

export type Paint = {color?: string | undefined; dimColor?: boolean; bold?: boolean};

/**
 * What `<Text color dimColor>` does to its text, as a string: Ink's own transform (dim first,
 * then the colour, with Ink's chalk and colorize), so a row can be one Text node holding one
 * precomputed string instead of nested Texts that Ink re-styles on every frame (~9 µs a row a
 * frame, measured on the conversations pane). Bold comes after the colour, as in Ink's Text.
 * Chalk writes nothing when colours are off.
 */
export function paint(text: string, {color, dimColor = false, bold = false}: Paint): string {
	let painted = text;
	if (dimColor) painted = chalk.dim(painted);
	if (color) painted = colorize(painted, color, 'foreground');
	if (bold) painted = chalk.bold(painted);
	return painted;
}
