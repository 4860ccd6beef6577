import { PictureOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useEffect, useId, useRef, useState } from 'react';

interface ImagePickerProps {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
}

/** A labelled file input for one image, with a preview of the chosen file. */
export function ImagePicker({ label, value, onChange }: ImagePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!value) {
      setPreview(null);
      if (input.current) input.current.value = '';
      return;
    }
    const url = URL.createObjectURL(value);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [value]);

  return (
    <div>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
        className="visually-hidden"
        tabIndex={-1}
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
      />
      <Space wrap>
        <Button icon={<PictureOutlined aria-hidden />} onClick={() => input.current?.click()}>
          {label}
        </Button>
        {value && (
          <>
            <Typography.Text type="secondary">{value.name}</Typography.Text>
            <Button type="link" onClick={() => onChange(null)}>
              Remove
            </Button>
          </>
        )}
      </Space>
      {preview && (
        <img
          src={preview}
          alt="Preview of the chosen image"
          style={{ display: 'block', marginTop: 8, maxWidth: 240, maxHeight: 160, borderRadius: 8, objectFit: 'cover' }}
        />
      )}
    </div>
  );
}
