import { ConfigProvider } from 'antd';
import useCardStyle from 'antd/es/card/style';
import { type HTMLAttributes, type ReactNode, useContext } from 'react';

interface CardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  title?: ReactNode;
  /** Beside the title, at the end of the head (the library's `extra`). */
  extra?: ReactNode;
  size?: 'small' | 'default';
  hoverable?: boolean;
  children?: ReactNode;
}

/**
 * Ant Design's Card as this app uses it (a bordered box with an optional title), with the same
 * markup and the same themed styles. The library's Card always brings Tabs (which bring a menu and
 * a dropdown) and the form context, about 30 KB gzip that the feed would download only to render a
 * box.
 */
export function Card({ title, extra, size = 'default', hoverable = false, className, children, ...rest }: CardProps) {
  const { getPrefixCls, direction } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('card');
  const [hashId, cssVarCls] = useCardStyle(prefixCls);
  const classes = [
    prefixCls,
    `${prefixCls}-bordered`,
    hoverable && `${prefixCls}-hoverable`,
    size === 'small' && `${prefixCls}-small`,
    direction === 'rtl' && `${prefixCls}-rtl`,
    className,
    hashId,
    cssVarCls,
  ];
  return (
    <div {...rest} className={classes.filter(Boolean).join(' ')}>
      {title !== undefined && title !== null && (
        <div className={`${prefixCls}-head`}>
          <div className={`${prefixCls}-head-wrapper`}>
            <div className={`${prefixCls}-head-title`}>{title}</div>
            {extra !== undefined && extra !== null && <div className={`${prefixCls}-extra`}>{extra}</div>}
          </div>
        </div>
      )}
      <div className={`${prefixCls}-body`}>{children}</div>
    </div>
  );
}
