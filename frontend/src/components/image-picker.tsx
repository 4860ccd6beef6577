import { PictureOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useEffect, useId, useRef, useState } from 'react';
import { ACCEPTED_IMAGE_TYPES, imageFileProblem } from '../lib/upload-image';

interface ImagePickerProps {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  /** Why the server refused the chosen file (uploadRefusal), shown next to the picker. */
  error?: string | null;
}

/**
 * A labelled file input for one image, with a preview of the chosen file. A file that is not an
 * image is refused here, with the reason next to the button, and never uploaded; one the browser
 * cannot draw shows no (broken) preview, and the server's reason when it refuses it.
 */
export function ImagePicker({ label, value, onChange, error }: ImagePickerProps) {
  const id = useId();
  const problemId = `${id}-problem`;
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [unreadable, setUnreadable] = useState(false);

  useEffect(() => {
    setUnreadable(false);
    if (!value) {
      setPreview(null);
      if (input.current) input.current.value = '';
      return;
    }
    const url = URL.createObjectURL(value);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [value]);

  const choose = (file: File | null) => {
    const refused = file ? imageFileProblem(file) : null;
    setProblem(refused);
    if (refused && input.current) input.current.value = '';
    onChange(refused ? null : file);
  };

  const shown = problem ?? error ?? null;

  return (
    <div>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        ref={input}
        type="file"
        accept={ACCEPTED_IMAGE_TYPES}
        className="visually-hidden"
        tabIndex={-1}
        aria-describedby={shown ? problemId : undefined}
        onChange={(event) => choose(event.target.files?.[0] ?? null)}
      />
      <Space wrap>
        <Button
          icon={<PictureOutlined aria-hidden />}
          onClick={() => input.current?.click()}
          aria-describedby={shown ? problemId : undefined}
        >
          {label}
        </Button>
        {value && (
          <>
            <Typography.Text type="secondary">{value.name}</Typography.Text>
            <Button type="link" onClick={() => choose(null)}>
              Remove
            </Button>
          </>
        )}
      </Space>
      {shown && (
        <div id={problemId} role="alert" style={{ marginTop: 8 }}>
          <Typography.Text type="danger">{shown}</Typography.Text>
        </div>
      )}
      {preview && !unreadable && (
        <img
          src={preview}
          alt="Preview of the chosen image"
          onError={() => setUnreadable(true)}
          style={{ display: 'block', marginTop: 8, maxWidth: 240, maxHeight: 160, borderRadius: 8, objectFit: 'cover' }}
        />
      )}
    </div>
  );
}
