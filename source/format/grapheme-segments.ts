/**
 * The grapheme clusters of a string, from one Intl.Segmenter made by the first call. Not made as
 * the module loads: the first Intl object of a process sets up ICU's locale data (20-40 ms of
 * CPU), and the dashboard's first frame needs no segmenter, so it is not made before that frame
 * (source/boundary/source-patches.mjs does the same for the libraries' segmenters).
 */
let segmenter: Intl.Segmenter | undefined;

export function graphemeSegments(text: string): Intl.Segments {
	segmenter ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'});
	return segmenter.segment(text);
}
