export * from './api';
export * from './use-generation';
export { ChapterMaterials } from './components/chapter-materials';
export { DashboardCards } from './components/dashboard-cards';
export { ExportMenu } from './components/export-menu';
export { FolderSidebar } from './components/folder-sidebar';
export {
  GenerationForm,
  type GenerationFormProps,
  type GenerationPrefill,
} from './components/generation-form';
export { MaterialCard, MaterialList } from './components/material-list';
export { MaterialEditor } from './components/material-editor';
export { MaterialView } from './components/material-view';
export { SubscriptionNotice } from './components/subscription-notice';
