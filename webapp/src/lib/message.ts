// Toasts. At most one message is shown at a time (spec 9): each new one replaces the last.
import { notifications } from '@mantine/notifications';

export type MessageType = 'success' | 'error' | 'warning' | 'info';

const COLORS: Record<MessageType, string> = {
  success: 'teal',
  error: 'red',
  warning: 'orange',
  info: 'blue',
};

const MESSAGE_ID = 'clearway-message';

export function showMessage(type: MessageType, message: string, autoClose = 3000): void {
  if (!message) return;
  notifications.clean();
  notifications.show({
    id: MESSAGE_ID,
    color: COLORS[type],
    message,
    autoClose,
    withBorder: true,
  });
}

export const message = {
  success: (text: string) => showMessage('success', text),
  error: (text: string) => showMessage('error', text),
  warning: (text: string) => showMessage('warning', text),
  info: (text: string) => showMessage('info', text),
};
