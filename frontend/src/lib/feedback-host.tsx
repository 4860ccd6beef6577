import { message, Modal, notification } from 'antd';
import { useEffect } from 'react';
import { provideFeedback } from './notify';

/** Loaded lazily by notify.tsx: the same hook instances Ant Design's App would give. */
export default function FeedbackHostHolders() {
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [messageApi, messageHolder] = message.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => {
    provideFeedback({ notification: notificationApi, message: messageApi, modal: modalApi });
    return () => provideFeedback(null);
  }, [notificationApi, messageApi, modalApi]);
  return (
    <>
      {notificationHolder}
      {messageHolder}
      {modalHolder}
    </>
  );
}
