// Opening a wiki on disk: one walk of the tree, then the layout every room works from.
import type { StewardConfig } from '../config/config.js';
import { type WikiLayout, discoverLayout } from './layout.js';
import { type WikiTree, loadFileTree } from './tree.js';

export async function openWikiLayout(wikiRoot: string, config: StewardConfig): Promise<WikiLayout> {
  return layoutOf(await loadFileTree(wikiRoot), config);
}

export const layoutOf = (tree: WikiTree, config: StewardConfig): WikiLayout => discoverLayout(tree, config.categories);
