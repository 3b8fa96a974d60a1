/**
 * A tiny terminal for checking what a byte stream leaves on screen: printable text, `\n`, CR,
 * and the cursor and erase sequences our renderers use (CUP `H`, `A`/`B`/`G`, `K`/`2K`, `J`),
 * and scroll regions (DECSTBM `r`; a line feed on the region's last row scrolls the region).
 * Colours (SGR) are ignored; any other sequence fails the test, so a renderer cannot lean on
 * something this model does not know. Lines never wrap here: the renderers keep them narrower.
 */
/** SGR attributes by kind, so `ESC[36m…ESC[39m` and `ESC[0;36m…ESC[0m` draw the same cells. */
const closes: Record<number, string> = {39: 'fg', 49: 'bg', 22: 'weight', 23: 'italic', 24: 'underline', 27: 'inverse', 29: 'strike'};
function kindOf(code: number): string | undefined {
	if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 'fg';
	if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 'bg';
	return ({1: 'weight', 2: 'weight', 3: 'italic', 4: 'underline', 7: 'inverse', 9: 'strike'} as Record<number, string>)[code];
}

export class VirtualScreen {
	readonly rows: string[][];
	/** The SGR state each cell was drawn in (`fg=36 weight=1`). */
	readonly styles: string[][];
	row = 0;
	column = 0;
	#sgr = new Map<string, string>();
	/** Scroll region, first and last row (DECSTBM). */
	#top = 0;
	#bottom: number;

	constructor(
		readonly columns: number,
		readonly height: number,
	) {
		this.rows = Array.from({length: height}, () => Array.from({length: columns}, () => ' '));
		this.styles = Array.from({length: height}, () => Array.from({length: columns}, () => ''));
		this.#bottom = height - 1;
	}

	/** A line feed on the region's last row: the region's lines move up one, a blank one comes in at its bottom. */
	#scrollRegion(): void {
		this.rows.splice(this.#top, 1);
		this.styles.splice(this.#top, 1);
		// The blank line takes the current background (BCE), as real terminals do.
		const background = this.#sgr.get('bg');
		this.rows.splice(this.#bottom, 0, Array.from({length: this.columns}, () => ' '));
		this.styles.splice(this.#bottom, 0, Array.from({length: this.columns}, () => (background ? `bg=${background}` : '')));
	}

	#style(): string {
		return [...this.#sgr].sort().map(([kind, value]) => `${kind}=${value}`).join(' ');
	}

	#applySgr(parameters: string): void {
		const codes = parameters === '' ? [0] : parameters.split(';').map(Number);
		for (let index = 0; index < codes.length; index++) {
			const code = codes[index]!;
			if (code === 0) this.#sgr.clear();
			else if (code === 38 || code === 48) {
				const length = codes[index + 1] === 5 ? 2 : codes[index + 1] === 2 ? 4 : 0;
				this.#sgr.set(code === 38 ? 'fg' : 'bg', codes.slice(index, index + 1 + length).join(';'));
				index += length;
			} else if (closes[code]) this.#sgr.delete(closes[code]);
			else {
				const kind = kindOf(code);
				if (kind) this.#sgr.set(kind, String(code));
			}
		}
	}

	/** Rows with each cell's style: two screens that look the same give the same string. */
	styledText(): string {
		return this.rows.map((cells, row) => cells.map((cell, column) => `${cell}${cell === ' ' && this.styles[row]![column] === '' ? '' : `{${this.styles[row]![column]}}`}`).join('')).join('\n');
	}

	write(data: string): void {
		let index = 0;
		while (index < data.length) {
			const char = data[index]!;
			if (char === '\u001B') {
				const match = /^\u001B\[(\??)([\d;]*)([A-Za-z])/.exec(data.slice(index));
				if (!match) throw new Error(`unknown escape at ${index}: ${JSON.stringify(data.slice(index, index + 12))}`);
				this.#control(match[1] ?? '', match[2] ?? '', match[3]!);
				index += match[0].length;
				continue;
			}
			if (char === '\n') {
				if (this.row === this.#bottom) this.#scrollRegion();
				else this.row = Math.min(this.height - 1, this.row + 1);
				this.column = 0;
			} else if (char === '\r') {
				this.column = 0;
			} else {
				if (this.column < this.columns) {
					this.rows[this.row]![this.column] = char;
					this.styles[this.row]![this.column] = this.#style();
				}
				this.column++;
			}
			index++;
		}
	}

	text(): string {
		return this.rows.map((cells) => cells.join('').trimEnd()).join('\n').replace(/\n+$/, '');
	}

	#control(privateMarker: string, parameters: string, final: string): void {
		if (privateMarker) return; // modes: cursor visibility, synchronized output
		const numbers = parameters.split(';').map((value) => (value === '' ? undefined : Number(value)));
		const first = numbers[0];
		switch (final) {
			case 'm':
				this.#applySgr(parameters);
				return;
			case 'r':
				// DECSTBM: the region, then the cursor home.
				this.#top = (first ?? 1) - 1;
				this.#bottom = Math.min(this.height - 1, (numbers[1] ?? this.height) - 1);
				if (this.#top >= this.#bottom) {
					this.#top = 0;
					this.#bottom = this.height - 1;
				}
				this.row = 0;
				this.column = 0;
				return;
			case 'H':
				this.row = Math.min(this.height - 1, (first ?? 1) - 1);
				this.column = (numbers[1] ?? 1) - 1;
				return;
			case 'A':
				this.row = Math.max(0, this.row - (first ?? 1));
				return;
			case 'B':
				this.row = Math.min(this.height - 1, this.row + (first ?? 1));
				return;
			case 'G':
				this.column = (first ?? 1) - 1;
				return;
			case 'K': {
				const cells = this.rows[this.row]!;
				const from = first === 2 ? 0 : this.column;
				for (let column = from; column < this.columns; column++) {
					cells[column] = ' ';
					this.styles[this.row]![column] = '';
				}
				return;
			}
			case 'J': {
				for (let row = this.row; row < this.height; row++) {
					const from = row === this.row ? this.column : 0;
					for (let column = from; column < this.columns; column++) {
						this.rows[row]![column] = ' ';
						this.styles[row]![column] = '';
					}
				}
				return;
			}
			default:
				throw new Error(`the virtual screen does not know ESC[${parameters}${final}`);
		}
	}
}
