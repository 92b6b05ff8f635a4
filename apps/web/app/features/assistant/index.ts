export { assistantApi, streamAnswer } from './api';
export { ChatScreen, NoSession } from './components/chat-screen';
