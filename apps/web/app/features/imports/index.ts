export { FileImport, fileImportStyles, type FileImportProps } from './components/file-import';
