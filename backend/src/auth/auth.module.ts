import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { JWT_SECRET } from '../config/config.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtStrategy } from './jwt.strategy';
import { PasswordHasher } from './password-hasher';
import { TOKEN_LIFETIME_SECONDS } from './token-payload';

@Module({
  imports: [
    PassportModule,
    UsersModule,
    JwtModule.registerAsync({
      inject: [JWT_SECRET],
      useFactory: (secret: string) => ({
        secret,
        signOptions: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME_SECONDS },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, JwtStrategy, PasswordHasher],
  // The account settings (account/) check passwords and issue the token that outlives a password change.
  exports: [AuthService, PasswordHasher],
})
export class AuthModule {}
