import { createContext, useContext } from 'react';

/**
 * Values a page renders on the server without repeating them in its hydration data (issue 18):
 * a loader puts a large value here (the chapter text) and returns the rest; the component
 * renders it on the server, and the browser reuses the markup already in the document.
 * Empty in the browser.
 */
export interface RenderData {
  chapterText?: string;
}

const RenderDataContext = createContext<RenderData>({});

export const RenderDataProvider = RenderDataContext.Provider;

export function useRenderData(): RenderData {
  return useContext(RenderDataContext);
}
