import { Modal, notification } from 'antd';
import { useEffect } from 'react';
import { provideFeedback } from './notify';
import './feedback-host.css';

/** Loaded lazily by notify.tsx: the same hook instances Ant Design's App would give. */
export default function FeedbackHostHolders() {
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => {
    provideFeedback({ notification: notificationApi, modal: modalApi });
    return () => provideFeedback(null);
  }, [notificationApi, modalApi]);
  return (
    <>
      {notificationHolder}
      {modalHolder}
    </>
  );
}
