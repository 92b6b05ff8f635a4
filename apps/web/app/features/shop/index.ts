export * from './api';
export { ProductCard, ProductGrid } from './components/product-card';
export { GenerationForm } from './components/generation-form';
export { ProductView } from './components/product-view';
export { ShopBrowser } from './components/shop-browser';
